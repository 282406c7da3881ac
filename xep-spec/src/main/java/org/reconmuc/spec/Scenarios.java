package org.reconmuc.spec;

import java.util.List;

/**
 * The scenario scripts under {@code reconmuc/scenarios/} on the classpath: short conversations in
 * the {@code urn:reconmuc:scenario:0} format ({@link Schemas#scenario()}) that implementations
 * replay. The matching rules are in {@code reconmuc/scenarios/README.md} (also readable with
 * {@link #readme()}) and in the documentation of {@code scenario.xsd}.
 */
public final class Scenarios {
    /** The namespace of the scenario scripts. */
    public static final String NAMESPACE = "urn:reconmuc:scenario:0";
    static final String DIR = "scenarios";

    private Scenarios() {
    }

    /** The names of all scenarios (file names without ".xml"), in index order. */
    public static List<String> list() {
        return Resources.xmlNames(DIR);
    }

    /**
     * The XML text of one scenario.
     *
     * @param name a name from {@link #list()}, with or without ".xml"
     * @throws IllegalArgumentException if there is no such scenario
     */
    public static String read(String name) {
        return Resources.xml(DIR, name);
    }

    /** The README that defines how scenarios are replayed and matched. */
    public static String readme() {
        return Resources.text(DIR + "/README.md");
    }
}
