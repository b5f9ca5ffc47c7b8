from app import views
from app.models import all_items

print(views.index(), all_items())
