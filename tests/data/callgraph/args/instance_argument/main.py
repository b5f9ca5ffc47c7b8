class Email:
    def send(self, text):
        return "email:" + text


class Sms:
    def send(self, text):
        return "sms:" + text


class Fax:
    def send(self, text):
        return "fax:" + text


def notify(channel, text):
    return channel.send(text)


print(notify(Email(), "hi"), notify(Sms(), "yo"))
print(Fax().send("x"))
