class AppError(Exception):
    def __init__(self, message):
        super().__init__(message)
        self.message = message


def fail():
    raise AppError("bad")


try:
    fail()
except AppError as error:
    print(error.message)
