package d;

public class Unused {}
