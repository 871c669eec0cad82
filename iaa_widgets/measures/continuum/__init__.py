"""Measures over a continuum of units: Mathet's γ, γ_cat, γ_k and Krippendorff's unitizing α."""
