package doc;

/** Calls on call results: a receiver's method, an inherited one, the enclosing class's own. */
public class Document extends Element {
  public String first(Element doc) {
    return doc.expectFirst("div").html();
  }

  public int own() {
    return outputSettings().syntax().indent();
  }

  public int inferred() {
    var settings = outputSettings();
    return settings.indent();
  }

  public int inferredChain(Element doc) {
    var chosen = doc.expectFirst("p").outputSettings();
    return chosen.indent();
  }

  // A generic result, a void one, a name reused for two calls: no edge through them.
  public void unknown(Element doc) {
    doc.as(Settings.class).indent();
    var again = doc.as(Settings.class);
    again.indent();
    var twice = doc.outputSettings();
    twice = null;
  }
}
