def on_done(result):
    return "done: %s" % result


def on_fail(result):
    return "failed: %s" % result


class Job:
    def __init__(self, callback):
        self.callback = callback

    def finish(self, result):
        return self.callback(result)


print(Job(on_done).finish(1))
print(Job(on_fail).finish(2))
