def check_disk():
    return True


def check_memory():
    return True


checks = {"disk": check_disk, "memory": check_memory}
for name, check in checks.items():
    print(name, check())
