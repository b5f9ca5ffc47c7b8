def cleanup():
    return "clean"


def finish(step, hook):
    return step + hook()


options = {"hook": cleanup}
print(finish("done:", **options))
