def setup():
    return "setup"


def test_a():
    return "a"


def test_b():
    return "b"


suite = [setup, test_a, test_b]
for test in suite[1:]:
    print(test())
groups = [[setup], [test_a, test_b]]
print(groups[0][0]())
