def retry(times):
    def decorate(fn):
        def attempt(*args):
            result = None
            for _ in range(times):
                result = fn(*args)
            return result

        return attempt

    return decorate


@retry(times=2)
def fetch(url):
    return url.upper()


print(fetch("x"))
