import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-FIN4RVUD.js";import"./chunk-K3D5RFA3.js";import"./chunk-NL3ZHXHZ.js";import"./chunk-3VTSNRTM.js";import"./chunk-UR7XJTHI.js";import"./chunk-KPDJUY4C.js";import"./chunk-2STENJHM.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
