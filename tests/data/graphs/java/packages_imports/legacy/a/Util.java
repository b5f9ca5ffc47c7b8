package a;

// The same class in a second source root: files under src/ resolve a.Util to src/a/Util.java.
public class Util {
  public static int twice(int x) {
    return x + x;
  }
}
