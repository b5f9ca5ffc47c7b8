# === Function Annotation ===
# function: unterminated
def f():
    pass
