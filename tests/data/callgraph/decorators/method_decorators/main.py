def audited(method):
    def run(self, *args):
        self.calls += 1
        return method(self, *args)

    return run


class Account:
    def __init__(self):
        self.calls = 0
        self.balance = 0

    @audited
    def deposit(self, amount):
        self.balance += amount
        return self.balance


account = Account()
account.deposit(5)
print(account.calls, account.balance)
