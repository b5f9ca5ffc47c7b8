# === Function Annotation ===
# function: a.py:f
# CALLED_BY: g
# === Function Annotation ===
def f():
    return 1
