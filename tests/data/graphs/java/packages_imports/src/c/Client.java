package c;

import static a.Util.half;
import static b.Util.*;

import a.Util.Inner;
import d.*;

public class Client {
  int run() {
    new Inner().ping();
    Tool tool = new Tool();
    tool.use();
    return half(4) + twice(2);
  }
}
