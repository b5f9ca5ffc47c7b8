class Query:
    def __init__(self, table):
        self.table = table
        self.filters = []

    def where(self, condition):
        self.filters.append(condition)
        return self

    def sql(self):
        return "SELECT * FROM %s WHERE %s" % (self.table, " AND ".join(self.filters))


def select(table):
    return Query(table)
