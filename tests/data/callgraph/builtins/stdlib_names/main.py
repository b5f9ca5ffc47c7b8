import json
import os.path

import codec

print(json.dumps([1]), os.path.join("a", "b"), codec.dumps(1), codec.join("x", "y"))
