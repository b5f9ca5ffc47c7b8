# === File Annotation ===
# file: pkg/a.py
# IMPORTS: pkg/b.py
# === File Annotation ===
import b


class A:
    # === Function Annotation ===
    # function: pkg/a.py:A.m
    # CALLS: pkg/b.py:helper
    # === Function Annotation ===
    def m(self):
        return b.helper()
