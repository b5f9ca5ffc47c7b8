import ping


def pong(n):
    return ping.ping(n)
