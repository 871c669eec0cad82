"""Measures over values with a metric: Krippendorff's α (every metric), ICC, Kendall's W, correlations and ANOVA."""
