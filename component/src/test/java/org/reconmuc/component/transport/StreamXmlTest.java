package org.reconmuc.component.transport;

import static org.assertj.core.api.Assertions.assertThat;

import org.dom4j.DocumentHelper;
import org.dom4j.Element;
import org.junit.jupiter.api.Test;

class StreamXmlTest {

    @Test
    void handshakeDigestIsLowercaseHexSha1() {
        // sha1("abc") is a well-known test vector.
        assertThat(StreamXml.handshakeDigest("a", "bc")).isEqualTo("a9993e364706816aba3e25717850c26c9cd0d89d");
        assertThat(StreamXml.handshake("a", "bc")).isEqualTo("<handshake>a9993e364706816aba3e25717850c26c9cd0d89d</handshake>");
    }

    @Test
    void streamHeaderAndErrorsEscapeWhatTheyCarry() {
        assertThat(StreamXml.streamHeader("muc.example")).isEqualTo("<?xml version='1.0'?><stream:stream"
                + " xmlns='jabber:component:accept' xmlns:stream='http://etherx.jabber.org/streams' to='muc.example'>");
        assertThat(StreamXml.streamError("not-well-formed", "a < b"))
                .isEqualTo("<stream:error><not-well-formed xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"
                        + "<text xmlns='urn:ietf:params:xml:ns:xmpp-streams'>a &lt; b</text></stream:error>");
    }

    @Test
    void aServerStreamErrorIsReadWithItsText() throws Exception {
        Element e = DocumentHelper.parseText("<error xmlns='http://etherx.jabber.org/streams'>"
                + "<conflict xmlns='urn:ietf:params:xml:ns:xmpp-streams'/>"
                + "<text xmlns='urn:ietf:params:xml:ns:xmpp-streams'>Replaced</text></error>").getRootElement();
        StreamXml.ServerStreamError error = StreamXml.ServerStreamError.of(e);
        assertThat(error.condition()).isEqualTo("conflict");
        assertThat(error.describe()).isEqualTo("the server sent stream error 'conflict' (Replaced)");
        Element empty = DocumentHelper.parseText("<error xmlns='http://etherx.jabber.org/streams'/>").getRootElement();
        assertThat(StreamXml.ServerStreamError.of(empty).condition()).isEqualTo("undefined");
    }

    @Test
    void anErrorReplyGoesBackToTheSenderFromTheAddressItWasSentTo() throws Exception {
        Element iq = DocumentHelper.parseText("<iq from='romeo@localhost/orchard' to='room@muc.example' id='q1'"
                + " type='get'><query xmlns='big'/></iq>").getRootElement();
        Element reply = StreamXml.errorReply(iq, "muc.example", "policy-violation", "Stanza too large");
        assertThat(reply.asXML()).isEqualTo("<iq from=\"room@muc.example\" to=\"romeo@localhost/orchard\" id=\"q1\""
                + " type=\"error\"><error type=\"modify\"><policy-violation xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\"/>"
                + "<text xmlns=\"urn:ietf:params:xml:ns:xmpp-stanzas\">Stanza too large</text></error></iq>");
        Element noTo = DocumentHelper.parseText("<message from='a@b/c'/>").getRootElement();
        assertThat(StreamXml.errorReply(noTo, "muc.example", "jid-malformed", "x").attributeValue("from"))
                .isEqualTo("muc.example");
    }

    @Test
    void errorsResultsNoSenderAndNonStanzasAreNeverAnswered() throws Exception {
        for (String xml : new String[] {
                "<message from='a@b/c' type='error'/>", "<iq from='a@b/c' type='result' id='r1'/>", "<presence/>",
                "<handshake from='a@b/c'/>"}) {
            assertThat(StreamXml.errorReply(DocumentHelper.parseText(xml).getRootElement(), "d", "bad-request", "t"))
                    .as(xml).isNull();
        }
    }

    @Test
    void outgoingStanzasMustComeFromOurDomainAndBeValidXml() {
        assertThat(StreamXml.outgoingProblem("muc.example", "room@muc.example/nick", "<message/>")).isNull();
        assertThat(StreamXml.outgoingProblem("muc.example", null, "<message/>")).contains("no 'from'");
        assertThat(StreamXml.outgoingProblem("muc.example", "x@other/y", "<message/>")).contains("not in muc.example");
        assertThat(StreamXml.outgoingProblem("muc.example", "muc.example", "<a>&#7;</a>")).contains("U+0007");
    }

    @Test
    void domainOfAJid() {
        assertThat(StreamXml.domainOf("room@muc.example/nick@x/y")).isEqualTo("muc.example");
        assertThat(StreamXml.domainOf("muc.example")).isEqualTo("muc.example");
        assertThat(StreamXml.domainOf("muc.example/res")).isEqualTo("muc.example");
    }

    @Test
    void forbiddenCharacters() {
        assertThat(StreamXml.firstForbiddenCharacter("<a>ok \t\n\r é 𝄞 \uFFFD</a>")).isEqualTo(-1);
        assertThat(StreamXml.firstForbiddenCharacter("<a>\u0007</a>")).isEqualTo(7);
        assertThat(StreamXml.firstForbiddenCharacter("<a>&#7;</a>")).isEqualTo(7);
        assertThat(StreamXml.firstForbiddenCharacter("<a>&#x0;</a>")).isEqualTo(0);
        assertThat(StreamXml.firstForbiddenCharacter("<a>&#65;&amp;&#x1F600;</a>")).isEqualTo(-1);
        assertThat(StreamXml.firstForbiddenCharacter("<a>\uFFFE</a>")).isEqualTo(0xFFFE);
        assertThat(StreamXml.firstForbiddenCharacter("<a>\uD800</a>")).isEqualTo(0xD800);
        assertThat(StreamXml.firstForbiddenCharacter("<a>\uDC00x</a>")).isEqualTo(0xDC00);
    }
}
