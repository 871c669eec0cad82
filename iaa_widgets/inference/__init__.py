"""Inference above the measures: bootstrap (unit, clustered, Krippendorff's), leave-one-out,
comparisons of agreement and study design. Resolves measures through the registry, so that
nothing below it imports upward (DESIGN.md, layout)."""
