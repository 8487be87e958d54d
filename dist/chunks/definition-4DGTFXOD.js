import { createRequire as __sauceCreateRequire } from 'node:module';
const require = __sauceCreateRequire(import.meta.url);
import{a}from"./chunk-DXPUWTFX.js";import"./chunk-OULGIBU3.js";import"./chunk-C5G6GREE.js";import"./chunk-X64JDYJL.js";import"./chunk-DHOSGSHR.js";import"./chunk-OGRF4GVT.js";import"./chunk-FC5NRJ7C.js";import"./chunk-7DOOPZ4R.js";import"./chunk-XBPPTJU7.js";export{a as action};
