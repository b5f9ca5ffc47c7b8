package doc;

/** An element whose methods return repository types, so calls chain on their results. */
public class Element {
  public Element expectFirst(String query) {
    return this;
  }

  public String html() {
    return "";
  }

  public Settings outputSettings() {
    return new Settings();
  }

  public <T> T as(Class<T> type) {
    return null;
  }

  public void nothing() {}
}
