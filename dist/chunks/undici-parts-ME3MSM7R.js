import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{y as c,z as h}from"./chunk-AYWZWFCT.js";import{a as t,e}from"./chunk-XBPPTJU7.js";var m=e(c(),1),r=e(h(),1);function u(i,p,o){let{origin:s,pathname:n,search:a}=new URL(i);return r.default.call(p,{...o,origin:s,path:n+a})}t(u,"request");var export_EnvHttpProxyAgent=m.default;export{export_EnvHttpProxyAgent as EnvHttpProxyAgent,u as request};
