import asyncio


def outer(n):
    def middle(m):
        def inner(k):
            return k + n + m
        return inner(m)
    return middle(n)


class Service:
    class Config:
        retries = 3

        def describe(self):
            return f"retries={self.retries}"

    async def fetch(self, key):
        await asyncio.sleep(0)
        return self.parse(key)

    def parse(self, key):
        return (lambda k: k.upper())(key)

    @staticmethod
    def create():
        return Service()

    @property
    def config(self):
        return Service.Config()


async def main():
    service = Service.create()
    return await service.fetch("x"), outer(2)
