package org.reconmuc.codec;

/**
 * The XML namespaces of the protocol ({@code xep-spec/reconmuc.md}) and of the standards its
 * elements are built from: the one place every module takes them from.
 */
public final class XmlNamespaces {
    /** The protocol, version 0; also the disco#info feature a client checks before opting in. */
    public static final String RECONMUC = "urn:reconmuc:0";
    /** The seed paper's namespace, accepted with the semantics of {@link #RECONMUC} (reconmuc.md §5.11). */
    public static final String JOOM = "http://joom.com/extensions";
    /** disco#info feature: the room sends compact batches (aggregation {@code compact}, reconmuc.md §7 rule 5). */
    public static final String FEATURE_COMPACT = RECONMUC + "#compact";
    /** disco#info feature: the room keeps a deflate stream per session (aggregation {@code compact-deflate}). */
    public static final String FEATURE_COMPACT_DEFLATE = RECONMUC + "#compact-deflate";
    /** Aggregation {@code compact-live}: immediate messages as compact batches' live items (reconmuc.md §5.9 rule 8.6). */
    public static final String FEATURE_COMPACT_LIVE = RECONMUC + "#compact-live";
    /** Aggregation {@code compact-deflate-live}: immediate messages in the deflate stream too (reconmuc.md §5.9 rule 8.6). */
    public static final String FEATURE_COMPACT_DEFLATE_LIVE = RECONMUC + "#compact-deflate-live";
    /** FORM_TYPE of the XEP-0128 extended disco#info form that advertises a room's limits (§7). */
    public static final String LIMITS_FORM_TYPE = RECONMUC + "#limits";

    public static final String JABBER_CLIENT = "jabber:client";
    /** XEP-0297 Stanza Forwarding: the items of a batch. */
    public static final String FORWARD = "urn:xmpp:forward:0";
    /** XEP-0203 Delayed Delivery. */
    public static final String DELAY = "urn:xmpp:delay";
    /** XEP-0033 Extended Stanza Addressing: a multicast's addresses. */
    public static final String ADDRESS = "http://jabber.org/protocol/address";
    /** XEP-0359 Unique and Stable Stanza IDs. */
    public static final String STANZA_ID = "urn:xmpp:sid:0";
    /** XEP-0461 Message Replies. */
    public static final String REPLY = "urn:xmpp:reply:0";
    /** XEP-0444 Message Reactions. */
    public static final String REACTIONS = "urn:xmpp:reactions:0";
    /** XEP-0421 Anonymous unique occupant identifiers. */
    public static final String OCCUPANT_ID = "urn:xmpp:occupant-id:0";
    /** XEP-0424 Message Retraction. */
    public static final String RETRACT = "urn:xmpp:message-retract:1";
    /** XEP-0425 Moderated Message Retraction. */
    public static final String MODERATE = "urn:xmpp:message-moderate:1";
    /** XEP-0424 version 0.3, which older clients still send (wrapped in XEP-0422 {@code <apply-to/>}). */
    public static final String RETRACT_0 = "urn:xmpp:message-retract:0";
    /** XEP-0425 version 0.2, still what many clients send and read (Conversations, Cheogram, older Converse.js). */
    public static final String MODERATE_0 = "urn:xmpp:message-moderate:0";
    /** XEP-0422 Message Fastening: the {@code <apply-to/>} wrapper of XEP-0424 0.3 and XEP-0425 0.2. */
    public static final String FASTEN = "urn:xmpp:fasten:0";
    /** XEP-0308 Last Message Correction. */
    public static final String CORRECT = "urn:xmpp:message-correct:0";
    /** XEP-0372 References (mentions). */
    public static final String REFERENCE = "urn:xmpp:reference:0";
    /** RFC 6120 stanza error conditions. */
    public static final String STANZAS = "urn:ietf:params:xml:ns:xmpp-stanzas";

    private XmlNamespaces() {
    }

    /** Whether requirements and topics may be in {@code ns}: this protocol's or the paper's namespace. */
    public static boolean isRequirementsNamespace(String ns) {
        return RECONMUC.equals(ns) || JOOM.equals(ns);
    }
}
