"""Measures of agreement on categories: observed agreement, the κ family, Gwet, Light, Maxwell, tolerance, augmented κ and SPA."""
