def step_one():
    return 1


def step_two():
    return 2


steps = [step_one]
steps += [step_two]
total = 0
for step in steps:
    total += step()
print(total)
