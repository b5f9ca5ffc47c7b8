def default_sort(items):
    return sorted(items)


def reverse_sort(items):
    return sorted(items, reverse=True)


class Table:
    def __init__(self, rows, reverse=False):
        self.rows = rows
        self.sorter = reverse_sort if reverse else default_sort

    def ordered(self):
        return self.sorter(self.rows)


print(Table([2, 1]).ordered(), Table([1, 2], reverse=True).ordered())
