package org.reconmuc.spec;

import javax.xml.XMLConstants;
import javax.xml.transform.stream.StreamSource;
import javax.xml.validation.Schema;
import javax.xml.validation.SchemaFactory;
import javax.xml.validation.Validator;
import org.reconmuc.codec.SecureXml;
import org.reconmuc.codec.XmlNamespaces;
import org.xml.sax.SAXException;

/**
 * The XML schemas of the specification, compiled once. {@link Schema} objects are immutable and
 * thread-safe; get a hardened {@link Validator} with {@link #validator(Schema)}.
 */
public final class Schemas {
    static final String DIR = "schema/";

    private static volatile Schema reconmuc0;
    private static volatile Schema joom;
    private static volatile Schema scenario;

    private Schemas() {
    }

    /** {@code reconmuc-0.xsd}: namespace {@code urn:reconmuc:0}. */
    public static Schema reconmuc0() {
        Schema s = reconmuc0;
        if (s == null) {
            reconmuc0 = s = load("reconmuc-0.xsd");
        }
        return s;
    }

    /** {@code joom-extensions.xsd}: the paper's namespace {@code http://joom.com/extensions}. */
    public static Schema joomExtensions() {
        Schema s = joom;
        if (s == null) {
            joom = s = load("joom-extensions.xsd");
        }
        return s;
    }

    /** {@code scenario.xsd}: namespace {@code urn:reconmuc:scenario:0}. */
    public static Schema scenario() {
        Schema s = scenario;
        if (s == null) {
            scenario = s = load("scenario.xsd");
        }
        return s;
    }

    /**
     * The schema for the elements of {@code namespace}: {@link Namespaces#RECONMUC_0},
     * {@link XmlNamespaces#JOOM} or {@link Scenarios#NAMESPACE}.
     *
     * @throws IllegalArgumentException for any other namespace
     */
    public static Schema forNamespace(String namespace) {
        return switch (namespace) {
            case XmlNamespaces.RECONMUC -> reconmuc0();
            case XmlNamespaces.JOOM -> joomExtensions();
            case Scenarios.NAMESPACE -> scenario();
            default -> throw new IllegalArgumentException("No schema for namespace " + namespace);
        };
    }

    /** The text of one schema file ({@code reconmuc-0.xsd}, {@code joom-extensions.xsd}, {@code scenario.xsd}). */
    public static String text(String file) {
        return Resources.text(DIR + file);
    }

    /**
     * A validator that fetches nothing: no external DTDs, no external schemas, secure processing
     * on. Validate a {@code DOMSource} built with {@link SecureXml} so that parsing is hardened too.
     */
    public static Validator validator(Schema schema) {
        Validator v = schema.newValidator();
        try {
            v.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            v.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            v.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
        } catch (SAXException e) {
            throw new IllegalStateException("The JDK validator refuses secure processing settings", e);
        }
        return v;
    }

    private static Schema load(String file) {
        SchemaFactory factory = SchemaFactory.newInstance(XMLConstants.W3C_XML_SCHEMA_NS_URI);
        try {
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setProperty(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            String url = Resources.url(DIR + file).toExternalForm();
            // The schema text is read by us; the factory gets no chance to follow any reference.
            StreamSource source = new StreamSource(new java.io.StringReader(Resources.text(DIR + file)), url);
            return factory.newSchema(source);
        } catch (SAXException e) {
            throw new IllegalStateException("Invalid schema " + file + ": " + e.getMessage(), e);
        }
    }
}
