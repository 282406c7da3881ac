package org.reconmuc.component.muc;

/**
 * XML namespaces of XEP-0045 and the other standards the service speaks; the protocol's, and those
 * its elements share with MUC (delay, stanza-id, stanza errors), are {@link org.reconmuc.codec.XmlNamespaces}.
 */
public final class Namespaces {
    public static final String MUC = "http://jabber.org/protocol/muc";
    public static final String MUC_USER = "http://jabber.org/protocol/muc#user";
    public static final String MUC_ADMIN = "http://jabber.org/protocol/muc#admin";
    public static final String MUC_OWNER = "http://jabber.org/protocol/muc#owner";
    public static final String MUC_ROOMCONFIG = "http://jabber.org/protocol/muc#roomconfig";
    public static final String MUC_ROOMINFO = "http://jabber.org/protocol/muc#roominfo";
    public static final String DISCO_INFO = "http://jabber.org/protocol/disco#info";
    public static final String DISCO_ITEMS = "http://jabber.org/protocol/disco#items";
    public static final String DATA_FORMS = "jabber:x:data";
    public static final String PING = "urn:xmpp:ping";
    public static final String VERSION = "jabber:iq:version";

    private Namespaces() {
    }
}
