from base import Handler


class JsonHandler(Handler):
    def __init__(self):
        super().__init__("json")

    def handle(self, request):
        return "{" + super().handle(request) + "}"


print(JsonHandler().handle("ping"))
