package doc;

/** Settings with a fluent setter. */
public class Settings {
  public Settings syntax() {
    return this;
  }

  public int indent() {
    return 1;
  }
}
