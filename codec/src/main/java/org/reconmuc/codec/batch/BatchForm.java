package org.reconmuc.codec.batch;

import org.reconmuc.codec.XmlNamespaces;

/**
 * What a batch's items look like: the value of its {@code form} attribute. The other seam of the
 * codec (beside {@link BatchEncoding}): whatever the form, {@link BatchDecoder} hands out every item
 * as an XEP-0297 {@code <forwarded/>} element, so a new form (one that writes items more compactly,
 * say) adds a constant here and its expansion to forwarded items in the decoder, and no reader of
 * decoded batches changes.
 */
public enum BatchForm {
    /** No {@code form} attribute: each item is {@code <forwarded xmlns='urn:xmpp:forward:0'/>} (§5.9 rule 2). */
    FORWARDED(null, "forwarded", XmlNamespaces.FORWARD),
    /**
     * {@code form='compact'}: each item is {@code <m/>} in the batch's namespace, holding only what
     * differs from item to item; the batch says the rest once (§5.9 rule 7). Expanded to forwarded.
     */
    COMPACT("compact", "m", XmlNamespaces.RECONMUC);

    private final String attributeValue;
    private final String itemElement;
    private final String itemNamespace;

    BatchForm(String attributeValue, String itemElement, String itemNamespace) {
        this.attributeValue = attributeValue;
        this.itemElement = itemElement;
        this.itemNamespace = itemNamespace;
    }

    /** The {@code form} attribute's value, or null when the attribute is absent. */
    public String attributeValue() {
        return attributeValue;
    }

    /** The local name of an item of this form. */
    public String itemElement() {
        return itemElement;
    }

    /** The namespace of an item of this form. */
    public String itemNamespace() {
        return itemNamespace;
    }

    /** The form a {@code form} attribute names (null: absent), or null if this codec does not know it. */
    public static BatchForm fromAttribute(String value) {
        for (BatchForm f : values()) {
            if (f.attributeValue == null ? value == null : f.attributeValue.equals(value)) {
                return f;
            }
        }
        return null;
    }
}
