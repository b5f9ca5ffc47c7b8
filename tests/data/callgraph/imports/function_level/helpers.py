def heavy():
    return "heavy"
