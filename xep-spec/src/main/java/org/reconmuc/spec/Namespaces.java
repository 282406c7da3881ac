package org.reconmuc.spec;

/** The namespaces and identifiers defined or used by the ReConMUC specification. */
public final class Namespaces {
    /** The protocol namespace and service discovery feature of this version. */
    public static final String RECONMUC_0 = "urn:reconmuc:0";
    /** The namespace of the paper's listings, accepted with the semantics of {@link #RECONMUC_0}. */
    public static final String JOOM = "http://joom.com/extensions";
    /** FORM_TYPE of the XEP-0128 extended disco#info form that advertises a room's limits. */
    public static final String LIMITS_FORM_TYPE = "urn:reconmuc:0#limits";
    /** The namespace of the scenario scripts. */
    public static final String SCENARIO_0 = "urn:reconmuc:scenario:0";

    public static final String JABBER_CLIENT = "jabber:client";
    public static final String FORWARD = "urn:xmpp:forward:0";
    public static final String DELAY = "urn:xmpp:delay";
    public static final String STANZA_ID = "urn:xmpp:sid:0";
    public static final String REPLY = "urn:xmpp:reply:0";
    public static final String REFERENCE = "urn:xmpp:reference:0";
    public static final String STANZAS = "urn:ietf:params:xml:ns:xmpp-stanzas";

    private Namespaces() {
    }
}
