def plain():
    return "# === not a block"
