"""Measures over sets of labels and over spans: multi-label α and span F1."""
