class ValidationError(Exception):
    def describe(self):
        return "invalid: %s" % self.args[0]


def validate(value):
    if value < 0:
        raise ValidationError(value)
    return value


def safe_validate(value):
    try:
        return validate(value)
    except ValidationError as error:
        return error.describe()


print(safe_validate(-1))
