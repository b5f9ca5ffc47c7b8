package ext;

import org.library.Component;

public class Widget extends Component {
  private final Helper helper = new Helper();

  void draw() {
    Helper.assist();
    helper.work();
    paint();
    render();
  }

  void paint() {}

  static class Part extends Component {
    void layout() {
      paint(Helper.SIZE);
    }
  }
}

class Helper {
  static final int SIZE = 2;

  static void assist() {}

  void work() {}

  void render() {}
}
