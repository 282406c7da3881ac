package org.reconmuc.component.protocol;

/** Namespaces of the protocol. */
public final class ReconMucNamespaces {
    /** This protocol, version 0; also the disco#info feature a client checks before opting in. */
    public static final String RECONMUC = "urn:reconmuc:0";
    /** The seed paper's namespace, accepted verbatim for requirements and topics. */
    public static final String JOOM = "http://joom.com/extensions";
    /** XEP-0128 extended disco info form advertising a service's limits. */
    public static final String LIMITS_FORM_TYPE = RECONMUC + "#limits";
    public static final String FORWARD = "urn:xmpp:forward:0";
    public static final String REPLY = "urn:xmpp:reply:0";
    public static final String REFERENCE = "urn:xmpp:reference:0";
    public static final String JABBER_CLIENT = "jabber:client";

    private ReconMucNamespaces() {
    }

    public static boolean isRequirementsNamespace(String ns) {
        return RECONMUC.equals(ns) || JOOM.equals(ns);
    }
}
