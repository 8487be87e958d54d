import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a,b}from"./chunk-JGOA43IX.js";import"./chunk-WQNDVSLD.js";import"./chunk-NH3HDLIC.js";import"./chunk-33TIGABD.js";import"./chunk-EKHKGVLI.js";import"./chunk-IFLZHTXF.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{b as action,a as post};
