package org.reconmuc.component.protocol;

import java.time.Instant;
import org.dom4j.DocumentException;
import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.dom4j.QName;
import org.reconmuc.codec.XmlNamespaces;

/**
 * Messages that take back an earlier one, and what is left of it: an XEP-0424 retraction
 * ({@code <retract id/>}, the id being the room's stanza-id, or XEP-0424 0.3's
 * {@code <apply-to id><retract/></apply-to>}, whose id may be the author's origin-id), an
 * XEP-0308 correction ({@code <replace id/>}, the id being the sender's own message id), an
 * XEP-0424 tombstone (the message with its content replaced by {@code <retracted/>}, XEP-0425 §5
 * for moderation) and a correction's final form (the original with the correction's content).
 *
 * <p>Tombstones and moderation notices carry both generations of XEP-0424/0425 (0.4/0.3 and
 * 0.3/0.2), as Prosody's mod_muc_moderation does: clients of both are in today's rooms and read
 * the same archive.
 */
public final class TakenBack {
    public static final String RETRACT = "retract";
    public static final String RETRACTED = "retracted";
    public static final String REPLACE = "replace";
    public static final String MODERATE = "moderate";
    public static final String MODERATED = "moderated";
    public static final String APPLY_TO = "apply-to";

    private TakenBack() {
    }

    /**
     * The id an XEP-0424 retraction names (a stanza-id, or for 0.3's {@code <apply-to/>} possibly
     * the author's origin-id or message id), or null if {@code message} retracts nothing.
     */
    public static String retracts(Element message) {
        Element retract = message.element(QName.get(RETRACT, XmlNamespaces.RETRACT));
        if (retract != null) {
            return retract.attributeValue("id");
        }
        Element applyTo = message.element(QName.get(APPLY_TO, XmlNamespaces.FASTEN));
        if (applyTo != null && applyTo.element(QName.get(RETRACT, XmlNamespaces.RETRACT_0)) != null) {
            return applyTo.attributeValue("id");
        }
        return null;
    }

    /**
     * XEP-0425 0.2's request, {@code <apply-to id><moderate><retract/><reason/></moderate></apply-to>}
     * (XEP-0422, {@link #isLegacyModerateRequest}), as 0.3's {@code <moderate id><retract/><reason/></moderate>}.
     * What is not a retraction stays out, so the caller refuses it the same way.
     */
    public static Element asModerateRequest(Element applyTo) {
        Element legacy = applyTo.element(QName.get(MODERATE, XmlNamespaces.MODERATE_0));
        Element moderate = DocumentHelper.createElement(QName.get(MODERATE, XmlNamespaces.MODERATE));
        String id = applyTo.attributeValue("id");
        if (id != null) {
            moderate.addAttribute("id", id);
        }
        if (legacy.element(QName.get(RETRACT, XmlNamespaces.RETRACT_0)) != null) {
            moderate.addElement(QName.get(RETRACT, XmlNamespaces.RETRACT));
        }
        String reason = legacy.elementText("reason");
        if (reason != null) {
            moderate.addElement("reason").setText(reason);
        }
        return moderate;
    }

    /** Whether {@code query} is an XEP-0422 {@code <apply-to/>} that asks for an XEP-0425 0.2 moderation. */
    public static boolean isLegacyModerateRequest(Element query) {
        return APPLY_TO.equals(query.getName()) && XmlNamespaces.FASTEN.equals(query.getNamespaceURI())
                && query.element(QName.get(MODERATE, XmlNamespaces.MODERATE_0)) != null;
    }

    /**
     * Adds to {@code notice} (a message from the room) the announcement that a moderator removed
     * {@code stanzaId}: XEP-0425 0.3's {@code <retract id><moderated by/><reason/></retract>} and
     * 0.2's {@code <apply-to id><moderated by><retract/><reason/></moderated></apply-to>}.
     */
    public static void announceModeration(Element notice, String stanzaId, Element moderated, String reason) {
        Element retract = notice.addElement(QName.get(RETRACT, XmlNamespaces.RETRACT));
        retract.addAttribute("id", stanzaId);
        retract.add(moderated.createCopy());
        if (reason != null) {
            retract.addElement(QName.get("reason", XmlNamespaces.RETRACT)).setText(reason);
        }
        Element applyTo = notice.addElement(QName.get(APPLY_TO, XmlNamespaces.FASTEN));
        applyTo.addAttribute("id", stanzaId);
        Element legacy = applyTo.addElement(QName.get(MODERATED, XmlNamespaces.MODERATE_0));
        legacy.addAttribute("by", moderated.attributeValue("by"));
        legacy.addElement(QName.get(RETRACT, XmlNamespaces.RETRACT_0));
        if (reason != null) {
            legacy.addElement(QName.get("reason", XmlNamespaces.MODERATE_0)).setText(reason);
        }
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
     * its author), and by XEP-0424 0.3's {@code <retracted stamp/>} — for a moderation inside
     * XEP-0425 0.2's {@code <moderated by><reason/></moderated>}.
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
        Element legacyParent = tombstone;
        if (moderated != null) {
            legacyParent = tombstone.addElement(QName.get(MODERATED, XmlNamespaces.MODERATE_0));
            legacyParent.addAttribute("by", moderated.attributeValue("by"));
        }
        legacyParent.addElement(QName.get(RETRACTED, XmlNamespaces.RETRACT_0)).addAttribute("stamp", retracted.attributeValue("stamp"));
        if (moderated != null && reason != null) {
            legacyParent.addElement(QName.get("reason", XmlNamespaces.MODERATE_0)).setText(reason);
        }
        return tombstone;
    }

    /**
     * The same, for a message as the archive stores it (XML text, as {@link Element#asXML()} wrote
     * it); {@code moderatedXml} is the {@code <moderated/>} element as text, or null.
     */
    public static String tombstoneXml(String originalXml, Instant at, String moderatedXml, String reason)
            throws DocumentException {
        Element moderated = moderatedXml == null ? null : Dom4jText.parse(moderatedXml);
        return tombstone(Dom4jText.parse(originalXml), at, moderated, reason).asXML();
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
