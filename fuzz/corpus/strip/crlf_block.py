# === Class Annotation ===
# class: a.py:A
# DERIVED: B
# === Class Annotation ===
class A:
    pass
