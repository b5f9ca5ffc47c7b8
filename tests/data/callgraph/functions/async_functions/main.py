import asyncio


async def fetch(n):
    await asyncio.sleep(0)
    return n * 2


async def gather_all():
    first = await fetch(1)
    second = await fetch(2)
    return first + second


def entry():
    return asyncio.run(gather_all())


print(entry())
