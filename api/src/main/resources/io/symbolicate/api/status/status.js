// The status page's live part: polls /status.json and redraws each section with the DOM API
// (text nodes only: nothing from the server is ever parsed as HTML). Formats numbers as the
// server does (StatusFormat), so the page looks the same with and without this script.
'use strict';
(function () {
  var POLL_MS = 2000;
  var SVG = 'http://www.w3.org/2000/svg';
  var BAR_WIDTH = 5, CHART_HEIGHT = 24;

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    setAll(e, attrs, children);
    return e;
  }
  function svg(tag, attrs) {
    var e = document.createElementNS(SVG, tag);
    setAll(e, attrs, null);
    return e;
  }
  function setAll(e, attrs, children) {
    if (attrs) {
      Object.keys(attrs).forEach(function (k) { e.setAttribute(k, String(attrs[k])); });
    }
    (children || []).forEach(function (c) {
      e.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
  }

  var fmt = {
    count: function (n) { return String(n); },
    rate: function (x) { return Number(x).toFixed(1); },
    percent: function (r) { return r === null || r === undefined ? '\u2013' : (r * 100).toFixed(1) + ' %'; },
    millis: function (ms) { return ms < 10000 ? Math.round(ms) + ' ms' : (ms / 1000).toFixed(1) + ' s'; },
    text: function (s) { return s === null || s === undefined ? '' : String(s); }
  };

  function note(text) { return el('p', { 'class': 'note' }, [text]); }
  function figure(key, label, value) {
    return el('div', { 'class': 'figure' }, [
      el('span', { 'class': 'value', 'data-k': key }, [value]), ' ', el('span', { 'class': 'label' }, [label])]);
  }
  function figures(list) { return el('div', { 'class': 'figures' }, list); }
  function th(text, numeric) { return el('th', numeric ? { 'class': 'n' } : null, [text]); }
  function td(text, cls, key) {
    var a = {};
    if (cls) { a['class'] = cls; }
    if (key) { a['data-k'] = key; }
    return el('td', a, [text]);
  }
  function table(head, rows) {
    return el('table', null, [el('thead', null, [el('tr', null, head)]), el('tbody', null, rows)]);
  }
  function counts(key, what, byName) {
    return table([th(what), th('count', true)], Object.keys(byName).map(function (name) {
      return el('tr', null, [td(name), td(fmt.count(byName[name]), 'n', key + '.' + name)]);
    }));
  }

  function chart(hours) {
    var max = Math.max.apply(null, [1].concat(hours));
    var width = hours.length * BAR_WIDTH;
    var s = svg('svg', { 'class': 'chart', width: width, height: CHART_HEIGHT,
      viewBox: '0 0 ' + width + ' ' + CHART_HEIGHT, role: 'img', 'data-hours': hours.join(','),
      'aria-label': 'per hour, oldest first: ' + hours.join(',') });
    hours.forEach(function (h, i) {
      var height = h === 0 ? 0 : Math.max(1, Math.round(h * CHART_HEIGHT / max));
      s.appendChild(svg('rect', { x: i * BAR_WIDTH, y: CHART_HEIGHT - height, width: BAR_WIDTH - 1, height: height }));
    });
    return s;
  }

  var sections = {
    events: function (e) {
      return [figures([
        figure('events.in_per_second', 'in / s', fmt.rate(e.in_per_second)),
        figure('events.out_per_second', 'out / s', fmt.rate(e.out_per_second)),
        figure('events.in_total', 'in since start', fmt.count(e.in_total)),
        figure('events.out_total', 'out since start', fmt.count(e.out_total))])];
    },
    dead_letters: function (d) {
      return [figures([figure('dead_letters.total', 'since start', fmt.count(d.total))]),
        counts('dead_letters.by_reason', 'reason', d.by_reason)];
    },
    parked: function (p) {
      return [figures([figure('parked.total', 'waiting for symbols', fmt.count(p.total))]),
        counts('parked.by_platform', 'platform', p.by_platform)];
    },
    loads: function (l) {
      var out = [figures([
        figure('loads.in_flight', 'in flight', fmt.count(l.in_flight)),
        figure('loads.finished', 'finished', fmt.count(l.finished)),
        figure('loads.mean_millis', 'mean time', fmt.millis(l.mean_millis))])];
      out.push(l.running.length === 0 ? note('no load running')
        : table([th('module'), th('running for', true)], l.running.map(function (r) {
          return el('tr', null, [td(r.module, 'name'), td(fmt.millis(r.running_millis), 'n')]);
        })));
      return out;
    },
    caches: function (caches) {
      return [table([th('layer'), th('hits', true), th('misses', true), th('hit rate', true)],
        caches.map(function (c) {
          var k = 'caches.' + c.layer;
          return el('tr', null, [td(c.layer), td(fmt.count(c.hits), 'n', k + '.hits'),
            td(fmt.count(c.misses), 'n', k + '.misses'), td(fmt.percent(c.hit_rate), 'n', k + '.hit_rate')]);
        }))];
    },
    missing_modules: function (m) {
      var out = [];
      if (m.note !== null) { out.push(note(m.note)); }
      if (m.modules.length === 0) {
        if (m.note === null) { out.push(note('no missing module seen')); }
        return out;
      }
      out.push(table([th('module'), th('platform'), th('scope'), th('count', true), th('last seen')],
        m.modules.map(function (x) {
          return el('tr', null, [td(x.module, 'name'), td(x.platform), td(x.scope), td(fmt.count(x.count), 'n'),
            td(fmt.text(x.last_seen), 'time')]);
        })));
      return out;
    },
    top_crashers: function (t) {
      if (!t.enabled) { return [note(fmt.text(t.note))]; }
      var out = [figures([figure('top_crashers.total', 'crashes', fmt.count(t.total))])];
      if (t.note !== null && t.note !== undefined) { out.push(note(t.note)); }
      if (t.crashers.length === 0) {
        out.push(note('no crash in the last 24 hours'));
        return out;
      }
      out.push(table([th('signature'), th('count', true), th('share', true), th('per hour'), th('first seen'),
        th('last seen'), th('example')], t.crashers.map(function (c) {
        return el('tr', null, [td(c.signature, 'name'), td(fmt.count(c.count), 'n'), td(fmt.percent(c.share), 'n'),
          el('td', null, [chart(c.hours)]), td(fmt.text(c.first_seen), 'time'), td(fmt.text(c.last_seen), 'time'),
          td(fmt.text(c.example_event_id), 'name')]);
      })));
      return out;
    }
  };

  function render(s) {
    document.querySelector('[data-k="generated_at"]').textContent = s.generated_at;
    Object.keys(sections).forEach(function (id) {
      var box = document.querySelector('[data-section="' + id + '"]');
      if (!box) { return; }
      var parts = s[id] === null || s[id] === undefined ? [note('not running on this instance')] : sections[id](s[id]);
      box.replaceChildren.apply(box, parts);
    });
  }

  var live = document.getElementById('live');
  var polls = 0;
  function poll() {
    fetch('/status.json', { cache: 'no-store', headers: { Accept: 'application/json' } })
      .then(function (r) {
        if (!r.ok) { throw new Error('HTTP ' + r.status); }
        return r.json();
      })
      .then(function (s) {
        render(s);
        polls++;
        document.body.setAttribute('data-polls', String(polls));
        live.textContent = '(live, every ' + POLL_MS / 1000 + ' s)';
        live.className = '';
      })
      .catch(function (e) {
        live.textContent = '(not updating: ' + e.message + '; retrying)';
        live.className = 'stale';
      })
      .then(function () { setTimeout(poll, POLL_MS); });
  }
  poll();
})();
