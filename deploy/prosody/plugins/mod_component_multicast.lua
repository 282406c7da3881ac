-- XEP-0033 multicast for trusted components, as ejabberd's mod_multicast and Openfire's
-- MulticastRouter offer it: a component such as ReConMUC sends a room's broadcast once, with one
-- bcc address per recipient, and each recipient gets the copy the component would have sent it
-- alone (its own 'to', no <addresses/>). Prosody then parses one stanza from the component instead
-- of one per recipient.
--
-- Load it as a component of its own, next to the server's hosts (its disco is found through the
-- server's disco#items, as ejabberd's multicast.<host> is):
--
--   Component "multicast.example.org" "component_multicast"
--       component_multicast_trusted = { "reconmuc.example.org" }
--       component_multicast_max_addresses = 1000
--
-- Only the listed component domains may use it (Prosody has checked a component's 'from' against
-- its domain): a client, a remote server or another component gets <forbidden/>, so the server
-- never amplifies anyone else's stanzas. Only bcc addresses with a JID are taken (the component
-- hides its recipients from each other, as a room does); a stanza with more addresses than the
-- limit is refused whole with <not-acceptable/>, as ejabberd refuses one. The limit is published
-- in the service's disco#info as ejabberd publishes its own (XEP-0128, FORM_TYPE
-- http://jabber.org/protocol/address, fields 'message' and 'presence').
--
-- Copies are routed at once, in the order of the addresses, on the component's own stream: a
-- component's stanzas reach each recipient in the order it sent them, multicast or not.

local st = require "util.stanza";
local jid_prep = require "util.jid".prep;
local dataforms = require "util.dataforms";

local full_sessions, bare_sessions = prosody.full_sessions, prosody.bare_sessions;
local xmlns_address = "http://jabber.org/protocol/address";
local trusted = module:get_option_set("component_multicast_trusted", {});
local max_addresses = module:get_option_number("component_multicast_max_addresses", 1000, 1);

module:depends("disco");
module:add_identity("service", "multicast", "Multicast for components");
module:add_feature(xmlns_address);
-- Copies are routed at once on the component's own stream, so they keep their order with what the
-- component sends directly: ReConMUC then sends single stanzas directly (ejabberd's mod_multicast,
-- which routes from a process of its own, does not promise this).
module:add_feature("urn:reconmuc:multicast:in-order:0");
module:add_extension(dataforms.new({
	{ name = "FORM_TYPE", type = "hidden", value = xmlns_address };
	{ name = "message", type = "text-single" };
	{ name = "presence", type = "text-single" };
}):form({ message = tostring(max_addresses), presence = tostring(max_addresses) }, "result"));

local function refuse(origin, stanza, condition, text)
	if stanza.attr.type ~= "error" then
		origin.send(st.error_reply(stanza, condition == "forbidden" and "auth" or "modify", condition, text));
	end
	return true;
end

-- The recipients of a multicast stanza, or nil and the reason to refuse it.
local function recipients_of(addresses)
	local jids = {};
	for address in addresses:childtags("address", xmlns_address) do
		if address.attr.type ~= "bcc" or address.attr.uri or address.attr.node or address.attr.delivered then
			return nil, "bad-request", "Only <address type='bcc' jid='...'/> is accepted";
		end
		local to = address.attr.jid;
		-- As the router does for a 'to': a connected session's JID is already in its prepared form.
		if to and not (full_sessions[to] or bare_sessions[to]) then
			to = jid_prep(to);
		end
		if not to then
			return nil, "jid-malformed", "An address has no valid 'jid'";
		end
		jids[#jids + 1] = to;
		if #jids > max_addresses then
			return nil, "not-acceptable", "At most " .. max_addresses .. " addresses per stanza";
		end
	end
	if #jids == 0 then
		return nil, "bad-request", "No <address/> in <addresses/>";
	end
	return jids;
end

local function multicast(event)
	local origin, stanza = event.origin, event.stanza;
	if stanza.attr.type == "error" then
		return true; -- nobody to tell
	end
	if origin.type ~= "component" or not trusted:contains(origin.host) then
		return refuse(origin, stanza, "forbidden", "This multicast service is only for the server's trusted components");
	end
	local addresses = stanza:get_child("addresses", xmlns_address);
	if not addresses then
		return refuse(origin, stanza, "bad-request", "A multicast stanza carries <addresses/>");
	end
	local jids, condition, text = recipients_of(addresses);
	if not jids then
		return refuse(origin, stanza, condition, text);
	end
	local payload = st.clone(stanza);
	payload:maptags(function (child)
		if child.name == "addresses" and child.attr.xmlns == xmlns_address then
			return nil;
		end
		return child;
	end);
	-- One stanza object for every copy, its 'to' set for each, as Prosody's own MUC routes a
	-- broadcast (muc.lib.lua route_to_occupant): whatever keeps a stanza for later copies it.
	for _, to in ipairs(jids) do
		payload.attr.to = to;
		prosody.core_post_stanza(origin, payload);
	end
	return true;
end

module:hook("message/host", multicast);
module:hook("presence/host", multicast);
