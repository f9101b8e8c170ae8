import { Router } from 'express';
import { siteRoutes } from '../../schema/routes/site-routes';
import { NO_CREDENTIAL, PreparedAnswer } from '../../src/door/exchange';
import { bindRoute } from '../route-binder';

/** The OpenAPI document and a page that renders it without any third-party script, through the one exchange. */
export function docsRouter(document: () => object): Router {
  const router = Router();
  let cached: PreparedAnswer | undefined;
  bindRoute(router, siteRoutes.openApi, NO_CREDENTIAL, () => (cached ??= new PreparedAnswer(200, Buffer.from(JSON.stringify(document())), { 'Content-Type': 'application/json; charset=utf-8' })));
  const page = new PreparedAnswer(200, Buffer.from(DOCS_PAGE), { 'Content-Type': 'text/html; charset=utf-8' });
  bindRoute(router, siteRoutes.docs, NO_CREDENTIAL, () => page);
  return router;
}

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>League API v1</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:15px/1.45 system-ui,sans-serif;margin:0;background:#f6f7f9;color:#1d232b}
header{background:#1d232b;color:#fff;padding:16px 24px}main{max-width:1000px;margin:auto;padding:16px}
.op{background:#fff;border:1px solid #dde1e6;border-radius:6px;margin:8px 0;padding:10px 14px}
.m{display:inline-block;min-width:64px;font-weight:700;text-transform:uppercase}
.get{color:#1769aa}.post{color:#2e7d32}.delete{color:#c62828}.put,.patch{color:#8a6d00}
code{font-size:13px}.tag{margin-top:24px;font-size:18px;font-weight:700}
details pre{background:#f0f2f5;padding:8px;overflow:auto;font-size:12px}.auth{color:#666;font-size:13px}
</style></head><body><header><b>Community League Platform API</b> &middot; v1 &middot; <a style="color:#9cf" href="/openapi.json">openapi.json</a></header>
<main id="ops">Loading…</main>
<script>
fetch('/openapi.json').then(r=>r.json()).then(doc=>{
  const byTag={};
  for(const [path,item] of Object.entries(doc.paths)) for(const [method,op] of Object.entries(item)){
    (byTag[op.tags[0]] ??= []).push({path,method,op});
  }
  const esc=s=>String(s).replace(/[&<>]/g,c=>({'&':'&amp;','<':'&lt;','>':'&gt;'}[c]));
  const main=document.getElementById('ops'); main.textContent='';
  for(const [tag,ops] of Object.entries(byTag)){
    const h=document.createElement('div'); h.className='tag'; h.textContent=tag; main.append(h);
    for(const {path,method,op} of ops){
      const auth=(op.security||[]).map(s=>Object.keys(s)[0]).join(' or ')||'none';
      const codes=Object.keys(op.responses).join(', ');
      const d=document.createElement('div'); d.className='op';
      d.innerHTML='<span class="m '+method+'">'+method+'</span> <code>'+esc(path)+'</code> — '+esc(op.summary)+
        '<div class="auth">auth: '+esc(auth)+' · responses: '+esc(codes)+'</div>'+
        '<details><summary>schema</summary><pre>'+esc(JSON.stringify({parameters:op.parameters,requestBody:op.requestBody,responses:op.responses},null,2))+'</pre></details>';
      main.append(d);
    }
  }
});
</script></body></html>`;
