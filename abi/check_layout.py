#!/usr/bin/env python3
"""Hold the public structures of include/governor.h to the ABI rules written
at the top of that header: same size, every member at the same offset with
the same type, and new members only inside the reserved tail of their own
structure.  abidiff checks the functions and enums; its type suppressions
cannot express this rule exactly (a suppression also hides changes nested
in a structure that itself has no insertion), so this script does.

usage: check_layout.py HEADER BASELINE.abi CURRENT.abi
Both ABI files are abidw's XML.  Exit 0 when the rules hold, 1 with one line
per violation otherwise, 2 on bad input.
"""
import re
import sys
import xml.etree.ElementTree as ET


def load(path):
    types = {}
    for el in ET.parse(path).iter():
        if 'id' in el.attrib:
            # A declaration-only entry never replaces a definition.
            if el.get('is-declaration-only') == 'yes' and el.get('id') in types:
                continue
            types[el.get('id')] = el
    named = {}
    for el in types.values():
        if el.tag == 'class-decl' and el.get('is-declaration-only') != 'yes':
            named.setdefault(el.get('name'), el)
    return types, named


def strip(types, tid):
    """Follow typedefs and qualifiers to the type that has the layout."""
    el = types[tid]
    while el.tag in ('typedef-decl', 'qualified-type-def'):
        el = types[el.get('type-id')]
    return el


def type_name(types, tid):
    el = types[tid]
    if el.tag == 'pointer-type-def':
        return type_name(types, el.get('type-id')) + '*'
    if el.tag == 'qualified-type-def':
        return ('const ' if el.get('const') == 'yes' else '') + type_name(types, el.get('type-id'))
    if el.tag == 'array-type-def':
        dims = ''.join('[%s]' % s.get('length') for s in el.findall('subrange'))
        return type_name(types, el.get('type-id')) + dims
    if el.tag == 'class-decl' and el.get('is-anonymous') == 'yes':
        return 'struct{}'
    return el.get('name', el.tag)


def members(types, cls, prefix, base, out):
    """path -> (offset in bits from the outer structure, size in bits, type)."""
    for dm in cls.findall('data-member'):
        var = dm.find('var-decl')
        off = base + int(dm.get('layout-offset-in-bits'))
        tid = var.get('type-id')
        inner = strip(types, tid)
        path = prefix + var.get('name')
        out[path] = (off, int(inner.get('size-in-bits', 0)), type_name(types, tid))
        if inner.tag == 'class-decl':
            members(types, inner, path + '.', off, out)
    return out


def check(name, old, new):
    types_o, cls_o = old
    types_n, cls_n = new
    errors = []
    if name not in cls_o:
        return errors  # new in this version: nothing to keep
    if name not in cls_n:
        return ['%s: no longer defined' % name]
    so, sn = int(cls_o[name].get('size-in-bits')), int(cls_n[name].get('size-in-bits'))
    if so != sn:
        errors.append('%s: size changed from %d to %d bytes' % (name, so // 8, sn // 8))
    mo = members(types_o, cls_o[name], '', 0, {})
    mn = members(types_n, cls_n[name], '', 0, {})
    for path, (off, size, tname) in mo.items():
        last = path.rsplit('.', 1)[-1]
        if last == 'reserved':
            if path in mn and mn[path][0] + mn[path][1] != off + size:
                errors.append('%s.%s: the reserved tail no longer ends where it did' % (name, path))
            continue
        if path not in mn:
            errors.append('%s.%s: removed or renamed' % (name, path))
        elif mn[path] != (off, size, tname):
            o, s, t = mn[path]
            errors.append('%s.%s: was %s at byte %d (%d bytes), now %s at byte %d (%d bytes)'
                          % (name, path, tname, off // 8, size // 8, t, o // 8, s // 8))
    for path, (off, size, _) in mn.items():
        if path in mo or any(path.startswith(p + '.') for p in mn if p not in mo and p != path):
            continue
        parent = path.rsplit('.', 1)[0] + '.' if '.' in path else ''
        tail = mo.get(parent + 'reserved')
        in_tail = tail and tail[0] <= off and off + size <= tail[0] + tail[1]
        if not in_tail and not in_padding(mo, parent, off, size, tail):
            errors.append('%s.%s: added outside the reserved tail of its structure'
                          % (name, path))
    return errors


def in_padding(mo, parent, off, size, tail):
    """Whether [off, off + size) lay in padding before the old tail: bytes
    of the parent that no old member of it covered (nothing moves)."""
    if not tail or off + size > tail[0]:
        return False
    for p, (o, s, _) in mo.items():
        if p.startswith(parent) and '.' not in p[len(parent):] and o < off + size and off < o + s:
            return False
    return True


def main(argv):
    if len(argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    header, base, cur = argv[1:]
    try:
        with open(header) as f:
            public = re.findall(r'typedef struct (\w+) \{', f.read())
        old, new = load(base), load(cur)
    except (OSError, ET.ParseError, KeyError) as e:
        print('check_layout: %s' % e, file=sys.stderr)
        return 2
    errors = [e for name in public for e in check(name, old, new)]
    for e in errors:
        print('ABI break: ' + e)
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
