"""Mathet's γ family on a continuum: dissimilarities, exact best alignment,
expected disorder by resampling, and the coefficients γ, γ_cat and γ_k."""
