def all_items():
    return ["a", "b"]
