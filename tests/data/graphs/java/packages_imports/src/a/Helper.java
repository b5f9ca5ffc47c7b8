package a;

class Helper {
  static int help() {
    return Util.twice(1);
  }
}
