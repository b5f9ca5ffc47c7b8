from service import DiskStore, Service
from tests.test_service import test_disk, test_save

Service(DiskStore()).save(0)
test_save()
test_disk()
