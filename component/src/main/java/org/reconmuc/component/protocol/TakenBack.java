package org.reconmuc.component.protocol;

import java.time.Instant;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;

/**
 * Messages that take back an earlier one, and what is left of it: an XEP-0424 retraction
 * ({@code <retract id/>}, the id being the room's stanza-id), an XEP-0308 correction
 * ({@code <replace id/>}, the id being the sender's own message id), an XEP-0424 tombstone
 * (the message with its content replaced by {@code <retracted/>}, XEP-0425 §5 for moderation)
 * and a correction's final form (the original with the correction's content).
 */
public final class TakenBack {
    public static final String RETRACT = "retract";
    public static final String RETRACTED = "retracted";
    public static final String REPLACE = "replace";
    public static final String MODERATE = "moderate";
    public static final String MODERATED = "moderated";

    private TakenBack() {
    }

    /** The stanza-id an XEP-0424 retraction names, or null. */
    public static String retracts(Element message) {
        Element retract = message.element(QName.get(RETRACT, XmlNamespaces.RETRACT));
        return retract == null ? null : retract.attributeValue("id");
    }

    /** The message id an XEP-0308 correction names, or null. */
    public static String corrects(Element message) {
        Element replace = message.element(QName.get(REPLACE, XmlNamespaces.CORRECT));
        return replace == null ? null : replace.attributeValue("id");
    }

    /** Children of a logged message that identify it rather than say something: kept by tombstones and final forms. */
    private static boolean identifies(Element child) {
        String ns = child.getNamespaceURI();
        return XmlNamespaces.STANZA_ID.equals(ns) || XmlNamespaces.OCCUPANT_ID.equals(ns);
    }

    /**
     * The tombstone of {@code original} (a copy is changed, not it): its attributes and the
     * children that identify it (stanza-id, origin-id, occupant-id) stay; its content is replaced
     * by {@code <retracted stamp/>}, with what {@code moderated} adds inside (null: retracted by
     * its author).
     */
    public static Element tombstone(Element original, Instant at, Element moderated, String reason) {
        Element tombstone = original.createCopy();
        for (Element child : tombstone.elements()) {
            if (!identifies(child)) {
                tombstone.remove(child);
            }
        }
        Element retracted = tombstone.addElement(QName.get(RETRACTED, XmlNamespaces.RETRACT));
        retracted.addAttribute("stamp", at.toString());
        if (moderated != null) {
            retracted.add(moderated.createCopy());
        }
        if (reason != null) {
            retracted.addElement(QName.get("reason", XmlNamespaces.RETRACT)).setText(reason);
        }
        return tombstone;
    }

    /**
     * The same, for a message as the archive stores it (XML text, as {@link Element#asXML()} wrote
     * it); {@code moderatedXml} is the {@code <moderated/>} element as text, or null.
     */
    public static String tombstoneXml(String originalXml, Instant at, String moderatedXml, String reason)
            throws DocumentException {
        Element moderated = moderatedXml == null ? null : DocumentHelper.parseText(moderatedXml).getRootElement();
        return tombstone(DocumentHelper.parseText(originalXml).getRootElement(), at, moderated, reason).asXML();
    }

    /**
     * {@code original} as {@code correction} left it: the original's attributes and identifying
     * children, the correction's content (without its {@code <replace/>} or its own identifiers).
     */
    public static Element finalForm(Element original, Element correction) {
        Element result = original.createCopy();
        for (Element child : result.elements()) {
            if (!identifies(child)) {
                result.remove(child);
            }
        }
        for (Element child : correction.elements()) {
            boolean replace = REPLACE.equals(child.getName()) && XmlNamespaces.CORRECT.equals(child.getNamespaceURI());
            if (!replace && !identifies(child)) {
                result.add(child.createCopy());
            }
        }
        return result;
    }
}
