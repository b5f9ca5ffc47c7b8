def log(message):
    return message


class Pipeline:
    def __init__(self):
        self.steps = []
        self.reset()

    def reset(self):
        self.steps = []
        return self

    def add(self, step):
        self.steps.append(step)
        log("added")
        return self

    def run(self):
        return self.validate() and len(self.steps)

    def validate(self):
        return bool(self.steps)


print(Pipeline().add("a").add("b").run())
